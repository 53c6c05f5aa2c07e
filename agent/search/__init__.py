"""The photo library: indexing folders and searching them by words."""
