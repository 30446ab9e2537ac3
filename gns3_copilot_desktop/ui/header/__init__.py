"""The dock's header: login, project choice, model choice and the settings it opens."""
