"""The lab on screen: its drawing, the Lab card, plans shown and edited, node names as links."""
