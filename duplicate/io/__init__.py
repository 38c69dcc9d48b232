"""Reading and writing result files: the only layer that touches the file system."""
