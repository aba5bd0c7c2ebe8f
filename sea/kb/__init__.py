"""Knowledge base: sources, the documents/paragraphs schema and the build."""
