"""Render: records → figures → Markdown (Jinja, sandboxed) → mdformat → README."""
