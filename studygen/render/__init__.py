"""Render: records → rows and charts → Markdown (Jinja, sandboxed) → mdformat → README."""
