"""What is in a photo: the offline models, detection, things the detector can find, colour, naming, concepts."""
