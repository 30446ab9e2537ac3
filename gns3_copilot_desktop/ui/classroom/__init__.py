"""The Classroom panel: a student's exam and a trainer's class, through a copilot service."""
