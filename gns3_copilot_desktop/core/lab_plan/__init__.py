"""Lab plans: a declarative lab, validated, compared with the project, applied, verified, undone."""
