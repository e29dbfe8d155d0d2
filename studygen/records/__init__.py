"""Records: schema-checked JSON run records, dataset definitions and study files."""
