"""GNS3 server access: the typed async client, its models and the notification streams."""

from gns3_copilot_desktop.core.gns3.client import Gns3Client
from gns3_copilot_desktop.core.gns3.models import (
    AuthToken,
    Drawing,
    Link,
    LinkEnd,
    Node,
    Notification,
    Port,
    Project,
    ProjectStats,
    Snapshot,
    Template,
    User,
    Version,
)
from gns3_copilot_desktop.core.gns3.notifications import Backoff

__all__ = [
    "AuthToken",
    "Backoff",
    "Drawing",
    "Gns3Client",
    "Link",
    "LinkEnd",
    "Node",
    "Notification",
    "Port",
    "Project",
    "ProjectStats",
    "Snapshot",
    "Template",
    "User",
    "Version",
]
