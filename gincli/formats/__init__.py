"""Reading and writing the file formats of FORMATS.md."""
