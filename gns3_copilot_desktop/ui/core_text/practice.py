"""The phrases of practice (pattern, template): exercises, a trainer's exercise file, its
signature and the lab archive checked before GNS3 unpacks it."""

from __future__ import annotations


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name pylupdate6 looks for
    """Mark `text` for translation where it is defined; it is translated where it is shown."""
    return text


PRACTICE_PHRASES: list[tuple[str, str]] = [
    # Practice: exercises and a trainer's exercise file (core/practice).
    (
        r"inject (\d+) (beginner|intermediate|advanced) fault on (\d+) device",
        QT_TRANSLATE_NOOP("CoreText", "inject %1 %2 fault on %3 device"),
    ),
    (
        r"inject (\d+) (beginner|intermediate|advanced) faults on (\d+) device",
        QT_TRANSLATE_NOOP("CoreText", "inject %1 %2 faults on %3 device"),
    ),
    (
        r"inject (\d+) (beginner|intermediate|advanced) fault on (\d+) devices",
        QT_TRANSLATE_NOOP("CoreText", "inject %1 %2 fault on %3 devices"),
    ),
    (
        r"inject (\d+) (beginner|intermediate|advanced) faults on (\d+) devices",
        QT_TRANSLATE_NOOP("CoreText", "inject %1 %2 faults on %3 devices"),
    ),
    (
        r"The faults are injected into the running lab by their own steps \(device consoles, "
        r"the GNS3 link settings\) and saved where the device keeps a startup configuration; no "
        r"node is stopped\. The exercise starts once each fault is confirmed; if one cannot be, "
        r"everything injected is undone\. Giving up runs the faults' undo steps\. What is "
        r"injected stays sealed until the exercise ends\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The faults are injected into the running lab by their own steps (device consoles, "
            "the GNS3 link settings) and saved where the device keeps a startup configuration; "
            "no node is stopped. The exercise starts once each fault is confirmed; if one cannot "
            "be, everything injected is undone. Giving up runs the faults' undo steps. What is "
            "injected stays sealed until the exercise ends.",
        ),
    ),
    (
        r"Each fault's own undo steps run \(shown above\); nothing else in the lab changes and "
        r"no node is stopped\. A device or link you removed meanwhile is left as it is\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "Each fault's own undo steps run (shown above); nothing else in the lab changes and "
            "no node is stopped. A device or link you removed meanwhile is left as it is.",
        ),
    ),
    (
        r"undo the exercise's faults on (.+)",
        QT_TRANSLATE_NOOP("CoreText", "undo the exercise's faults on %1"),
    ),
    (
        r"Could not inject “(.+)” on (.+?): (.*)\. Nothing was started and the lab is as it "
        r"was\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "Could not inject “%1” on %2: %3. Nothing was started and the lab is as it was.",
        ),
    ),
    (
        r"the lab changed: the link (.+) is no longer in it",
        QT_TRANSLATE_NOOP("CoreText", "the lab changed: the link %1 is no longer in it"),
    ),
    (
        r"the lab changed: the link (.+) is gone",
        QT_TRANSLATE_NOOP("CoreText", "the lab changed: the link %1 is gone"),
    ),
    (
        r"the lab changed: (.+) is no longer in it",
        QT_TRANSLATE_NOOP("CoreText", "the lab changed: %1 is no longer in it"),
    ),
    (
        r"the lab changed: (.+) was replaced by another node",
        QT_TRANSLATE_NOOP("CoreText", "the lab changed: %1 was replaced by another node"),
    ),
    (
        r"the lab changed: (.+) is not running",
        QT_TRANSLATE_NOOP("CoreText", "the lab changed: %1 is not running"),
    ),
    (
        r"(.+) does not answer on its console",
        QT_TRANSLATE_NOOP("CoreText", "%1 does not answer on its console"),
    ),
    (
        r"the link (.+) is no longer in the lab",
        QT_TRANSLATE_NOOP("CoreText", "the link %1 is no longer in the lab"),
    ),
    (
        r"(.+) is not running, so it was left as it is",
        QT_TRANSLATE_NOOP("CoreText", "%1 is not running, so it was left as it is"),
    ),
    (
        r"This exercise was sealed by another installation of GNS3 Copilot \(or its keyring was "
        r"reset\): its answer cannot be read here\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "This exercise was sealed by another installation of GNS3 Copilot (or its keyring "
            "was reset): its answer cannot be read here.",
        ),
    ),
    (
        r"Only an ended exercise can be undone\.",
        QT_TRANSLATE_NOOP("CoreText", "Only an ended exercise can be undone."),
    ),
    (
        r"The rehearsal of the exercise left: (.+)\.",
        QT_TRANSLATE_NOOP("CoreText", "The rehearsal of the exercise left: %1."),
    ),
    (
        r"Choose a passphrase of at least (\d+) characters\.",
        QT_TRANSLATE_NOOP("CoreText", "Choose a passphrase of at least %1 characters."),
    ),
    (
        r"This file is not an exercise exported by GNS3 Copilot\.",
        QT_TRANSLATE_NOOP("CoreText", "This file is not an exercise exported by GNS3 Copilot."),
    ),
    (
        r"This exercise file was made by another version of GNS3 Copilot\.",
        QT_TRANSLATE_NOOP(
            "CoreText", "This exercise file was made by another version of GNS3 Copilot."
        ),
    ),
    (
        r"The passphrase is wrong, or the file was changed\.",
        QT_TRANSLATE_NOOP("CoreText", "The passphrase is wrong, or the file was changed."),
    ),
    (
        r"This exercise file names an unknown level\.",
        QT_TRANSLATE_NOOP("CoreText", "This exercise file names an unknown level."),
    ),
    (
        r"This exercise needs the fault (.+), which this version of GNS3 Copilot does not have\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "This exercise needs the fault %1, which this version of GNS3 Copilot does not have.",
        ),
    ),
    (
        r"The lab is stopped \((.+)\): start the lab, then the exercise\.",
        QT_TRANSLATE_NOOP("CoreText", "The lab is stopped (%1): start the lab, then the exercise."),
    ),
    (
        r"No imported exercise waits in this project\.",
        QT_TRANSLATE_NOOP("CoreText", "No imported exercise waits in this project."),
    ),
    (
        r"The imported lab is not the trainer's any more \(a fault's device or link is "
        r"missing\): import the exercise again\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The imported lab is not the trainer's any more (a fault's device or link is "
            "missing): import the exercise again.",
        ),
    ),
    (
        r"The lab does not work yet, so the exercise could not be checked: (.+)\. Start its "
        r"nodes and try again\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The lab does not work yet, so the exercise could not be checked: %1. Start its "
            "nodes and try again.",
        ),
    ),
    (
        r"The lab does not work yet, so an exercise could not be checked: (.+)\. Make it work "
        r"first\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The lab does not work yet, so an exercise could not be checked: %1. Make it work "
            "first.",
        ),
    ),
    (
        r"GNS3 did not export the project as a zip archive\.",
        QT_TRANSLATE_NOOP("CoreText", "GNS3 did not export the project as a zip archive."),
    ),
    (
        r"The project is too large to export here\.",
        QT_TRANSLATE_NOOP("CoreText", "The project is too large to export here."),
    ),
    # a trainer's signature and the lab archive checked before GNS3 unpacks it
    (
        r"This exercise is signed by a different key than (.+)'s pinned key \(fingerprint "
        r"(.+), pinned (.+)\)\. It was not imported\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "This exercise is signed by a different key than %1's pinned key (fingerprint %2, "
            "pinned %3). It was not imported.",
        ),
    ),
    (
        r"The signature of this exercise does not match: the file was changed after (.+) "
        r"signed it, or it was forged\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The signature of this exercise does not match: the file was changed after %1 "
            "signed it, or it was forged.",
        ),
    ),
    (
        r"This exercise file is of the older, unsigned format, which anyone with the class "
        r"passphrase could have made\. Ask your trainer to export it again\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "This exercise file is of the older, unsigned format, which anyone with the class "
            "passphrase could have made. Ask your trainer to export it again.",
        ),
    ),
    (
        r"This exercise file is not signed by a trainer\.",
        QT_TRANSLATE_NOOP("CoreText", "This exercise file is not signed by a trainer."),
    ),
    (
        r"The project archive was refused: the entry “(.+)” (.+)\. Nothing was imported\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The project archive was refused: the entry “%1” %2. Nothing was imported.",
        ),
    ),
    (
        r"The project archive has (\d+) entries; at most (\d+) are imported\. Nothing was "
        r"imported\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The project archive has %1 entries; at most %2 are imported. Nothing was imported.",
        ),
    ),
]
