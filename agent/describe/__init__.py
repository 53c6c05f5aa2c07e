"""Traces and captions: trace pieces, trace-controlled captions, image descriptions, locating what a caption names."""
