"""The phrases of the tools' calls: their summaries, undoing a change, what goes with a deletion
or a change, and a lab plan (pattern, template) — the template's %1.. take the pattern's groups."""

from __future__ import annotations


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name pylupdate6 looks for
    """Mark `text` for translation where it is defined; it is translated where it is shown."""
    return text


TOOL_PHRASES: list[tuple[str, str]] = [
    # undoing a change (core.undo.apply): the actions, then why a step no longer applies
    (
        r"remove node (.+) and its (\d+) link\(s\)",
        QT_TRANSLATE_NOOP("CoreText", "remove node %1 and its %2 link(s)"),
    ),
    (r"remove node (.+)", QT_TRANSLATE_NOOP("CoreText", "remove node %1")),
    (
        r"bring back node (.+) \((\S+)\) at \((-?\d+), (-?\d+)\) with (.+)",
        QT_TRANSLATE_NOOP("CoreText", "bring back node %1 (%2) at (%3, %4) with %5"),
    ),
    (
        r"bring back node (.+) \((\S+)\) at \((-?\d+), (-?\d+)\)",
        QT_TRANSLATE_NOOP("CoreText", "bring back node %1 (%2) at (%3, %4)"),
    ),
    (r"bring back link (.+)", QT_TRANSLATE_NOOP("CoreText", "bring back link %1")),
    (r"rename (.+) back to ([^,]+)", QT_TRANSLATE_NOOP("CoreText", "rename %1 back to %2")),
    (
        r"move (.+) back to \((-?\d+), (-?\d+)\)",
        QT_TRANSLATE_NOOP("CoreText", "move %1 back to (%2, %3)"),
    ),
    (r"remove link (.+)", QT_TRANSLATE_NOOP("CoreText", "remove link %1")),
    (r"remove the note '(.*)'", QT_TRANSLATE_NOOP("CoreText", "remove the note '%1'")),
    (
        r"push back (\d+) line\(s\) to (.+)",
        QT_TRANSLATE_NOOP("CoreText", "push back %1 line(s) to %2"),
    ),
    # what goes with a deletion (one line each; the links' own lines are lab names, kept as are)
    (r"([^\n]+) goes with its 1 link:", QT_TRANSLATE_NOOP("CoreText", "%1 goes with its 1 link:")),
    (
        r"([^\n]+) goes with its (\d+) links:",
        QT_TRANSLATE_NOOP("CoreText", "%1 goes with its %2 links:"),
    ),
    (r"([^\n]+) has no links", QT_TRANSLATE_NOOP("CoreText", "%1 has no links")),
    (r"([^\n]+) is running now", QT_TRANSLATE_NOOP("CoreText", "%1 is running now")),
    (r"([^\n]+) is suspended now", QT_TRANSLATE_NOOP("CoreText", "%1 is suspended now")),
    (r"(.+) is already gone", QT_TRANSLATE_NOOP("CoreText", "%1 is already gone")),
    (r"(.+) is back already", QT_TRANSLATE_NOOP("CoreText", "%1 is back already")),
    (r"(.+) is as it was already", QT_TRANSLATE_NOOP("CoreText", "%1 is as it was already")),
    (r"a node named (.+) exists now", QT_TRANSLATE_NOOP("CoreText", "a node named %1 exists now")),
    (
        r"(.+): the name (.+) is taken now",
        QT_TRANSLATE_NOOP("CoreText", "%1: the name %2 is taken now"),
    ),
    (
        r"(.+): (.+) is not in the project",
        QT_TRANSLATE_NOOP("CoreText", "%1: %2 is not in the project"),
    ),
    (r"(.+): (.+) is in use", QT_TRANSLATE_NOOP("CoreText", "%1: %2 is in use")),
    (r"(.+): not put back: (.+)", QT_TRANSLATE_NOOP("CoreText", "%1: not put back: %2")),
    (
        r"(.+): its console cannot be reached from here",
        QT_TRANSLATE_NOOP("CoreText", "%1: its console cannot be reached from here"),
    ),
    (r"List projects", QT_TRANSLATE_NOOP("CoreText", "List projects")),
    (
        r"Read the topology of the current project",
        QT_TRANSLATE_NOOP("CoreText", "Read the topology of the current project"),
    ),
    (r"List templates matching (.+)", QT_TRANSLATE_NOOP("CoreText", "List templates matching %1")),
    (r"List templates", QT_TRANSLATE_NOOP("CoreText", "List templates")),
    (r"start capture on (.+)", QT_TRANSLATE_NOOP("CoreText", "start capture on %1")),
    (r"stop capture on (.+)", QT_TRANSLATE_NOOP("CoreText", "stop capture on %1")),
    (r"summarize capture of (.+)", QT_TRANSLATE_NOOP("CoreText", "summarize capture of %1")),
    (r"create nodes? (.+)", QT_TRANSLATE_NOOP("CoreText", "create %1")),
    (
        r"delete (.+) with (?:its|their) links",
        QT_TRANSLATE_NOOP("CoreText", "delete %1 and their links"),
    ),
    (r"create links? (.+)", QT_TRANSLATE_NOOP("CoreText", "create link %1")),
    (r"delete links? (.+)", QT_TRANSLATE_NOOP("CoreText", "delete link %1")),
    (
        r"start (.+) and wait up to (\S+) s",
        QT_TRANSLATE_NOOP("CoreText", "start %1 and wait up to %2 s"),
    ),
    (
        r"stop (.+) and wait up to (\S+) s",
        QT_TRANSLATE_NOOP("CoreText", "stop %1 and wait up to %2 s"),
    ),
    (
        r"suspend (.+) and wait up to (\S+) s",
        QT_TRANSLATE_NOOP("CoreText", "suspend %1 and wait up to %2 s"),
    ),
    (
        r"reload (.+) and wait up to (\S+) s",
        QT_TRANSLATE_NOOP("CoreText", "reload %1 and wait up to %2 s"),
    ),
    (r"start (.+)", QT_TRANSLATE_NOOP("CoreText", "start %1")),
    (r"stop (.+)", QT_TRANSLATE_NOOP("CoreText", "stop %1")),
    (r"suspend (.+)", QT_TRANSLATE_NOOP("CoreText", "suspend %1")),
    (r"reload (.+)", QT_TRANSLATE_NOOP("CoreText", "reload %1")),
    (r"run on (.+)", QT_TRANSLATE_NOOP("CoreText", "run on %1")),
    (r"configure (.+)", QT_TRANSLATE_NOOP("CoreText", "configure %1")),
    (r"details of (.+)", QT_TRANSLATE_NOOP("CoreText", "details of %1")),
    (r"links of the project", QT_TRANSLATE_NOOP("CoreText", "links of the project")),
    (r"links of (.+)", QT_TRANSLATE_NOOP("CoreText", "links of %1")),
    (r"project statistics", QT_TRANSLATE_NOOP("CoreText", "project statistics")),
    (r"list snapshots", QT_TRANSLATE_NOOP("CoreText", "list snapshots")),
    (r"template details of (.+)", QT_TRANSLATE_NOOP("CoreText", "template details of %1")),
    (r"create snapshot '(.+)'", QT_TRANSLATE_NOOP("CoreText", "create snapshot '%1'")),
    (
        r"restore snapshot '(.+)' \(replaces the current topology\)",
        QT_TRANSLATE_NOOP("CoreText", "restore snapshot '%1' (replaces the current topology)"),
    ),
    (r'add note "(.+)"', QT_TRANSLATE_NOOP("CoreText", 'add note "%1"')),
    (r"rename ([^;,]+) -> ([^;,]+)", QT_TRANSLATE_NOOP("CoreText", "rename %1 to %2")),
    (r"move ([^;]+) to \(([^;]+)\)", QT_TRANSLATE_NOOP("CoreText", "move %1 to (%2)")),
    # what goes with a change (the tools' consequence)
    (r"deletes (.+)", QT_TRANSLATE_NOOP("CoreText", "deletes %1")),
    (
        r"(.+) (?:is|are) running: their running configuration is lost unless saved on the device",
        QT_TRANSLATE_NOOP("CoreText", "%1 running: unsaved configuration on them is lost"),
    ),
    (
        r"(.+) (?:is|are) running: their consoles and traffic are paused",
        QT_TRANSLATE_NOOP("CoreText", "%1 running: their consoles and traffic are paused"),
    ),
    (
        r"none of these nodes is running",
        QT_TRANSLATE_NOOP("CoreText", "none of these nodes is running"),
    ),
    (
        r"replaces the current (\d+) node\(s\) and (\d+) link\(s\) with the snapshot; every change "
        r"made since it was taken is lost",
        QT_TRANSLATE_NOOP(
            "CoreText", "replaces the current %1 node(s) and %2 link(s); every later change is lost"
        ),
    ),
    (
        r"([^;]+): (\d+) new line\(s\), (\d+) already there",
        QT_TRANSLATE_NOOP("CoreText", "%1: %2 new line(s), %3 already there"),
    ),
    (
        r"([^;]+): running configuration not read \(([^;]+)\)",
        QT_TRANSLATE_NOOP("CoreText", "%1: running configuration not read (%2)"),
    ),
]

# A lab plan (core/agent/tools/plan_tools.py, core/lab_plan/diff.py).
TOOL_PHRASES += [
    (
        r"plan a lab of (\d+) nodes? and (\d+) links?",
        QT_TRANSLATE_NOOP("CoreText", "plan a lab of %1 nodes and %2 links"),
    ),
    (r"nothing to change", QT_TRANSLATE_NOOP("CoreText", "nothing to change")),
    (r"(\S+) started", QT_TRANSLATE_NOOP("CoreText", "%1 started")),
    (r"(\S+) pings (\S+)", QT_TRANSLATE_NOOP("CoreText", "%1 pings %2")),
    (r"add ([^;]+)", QT_TRANSLATE_NOOP("CoreText", "add %1")),
    (r"remove ([^;]+)", QT_TRANSLATE_NOOP("CoreText", "remove %1")),
]
