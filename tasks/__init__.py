"""Thin Prefect task wrappers over the sea/ core: arguments in, paths or small records out."""
