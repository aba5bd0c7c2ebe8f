"""The sample's index and paragraph vectors, shared by the retrieval tests."""

import pytest

from sea.embeddings import Embedder
from sea.index import DocumentIndex
from sea.paragraphs import ParagraphEmbeddings, ParagraphStore
from sea.settings import EmbeddingSettings


@pytest.fixture(scope="module")
def parts(vital_sample):
    embedder = Embedder(EmbeddingSettings(), vital_sample.paths.cache_dir / "embeddings.sqlite")
    index = DocumentIndex.load(vital_sample.paths.index_dir, vital_sample.index)
    return index, ParagraphEmbeddings(ParagraphStore(vital_sample.paths.kb_dir), embedder)
