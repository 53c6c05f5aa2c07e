"""Many photos: recipes (a conversation's edits as command lines), batches run on a local process pool or on Ray, and library indexing spread over workers with one database writer."""
