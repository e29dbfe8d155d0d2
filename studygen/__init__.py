"""studygen: inference study READMEs generated from measurement records and checked against them."""

__version__ = "0.1.0"
