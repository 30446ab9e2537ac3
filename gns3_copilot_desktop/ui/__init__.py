"""The Qt layer: widgets, views, dialogs, and the controller turning core iterators into signals."""
