"""Loading copies of the embedding model in bf16 from several threads at once (the app warms its
query copies in the background while a question may load another): every copy comes out in one dtype
and embeds, and no other thread ever sees torch's default dtype changed."""

from __future__ import annotations

import threading
import time

import pytest

from vera_core.index.embedding import load_sentence_transformer

torch = pytest.importorskip("torch")


def test_bf16_copies_loaded_in_parallel_are_whole_and_leave_the_default_dtype_alone():
    load_sentence_transformer.cache_clear()
    seen: set = set()
    loading = threading.Event()
    done = threading.Event()

    def watch() -> None:
        loading.wait()
        while not done.is_set():
            seen.add(torch.get_default_dtype())
            time.sleep(0.0005)

    def load(replica: int, out: dict) -> None:
        loading.set()
        out[replica] = load_sentence_transformer(None, True, bucketed=True, replica=replica + 10)

    models: dict = {}
    watcher = threading.Thread(target=watch)
    loaders = [threading.Thread(target=load, args=(r, models)) for r in range(2)]
    watcher.start()
    for t in loaders:
        t.start()
    for t in loaders:
        t.join()
    done.set()
    watcher.join()
    try:
        assert seen == {torch.float32}
        assert models
        for model in models.values():
            assert {p.dtype for p in model.parameters()} == {torch.bfloat16}
            vector = model.encode(["Net sales rose 4% to $32.8 billion."], normalize_embeddings=True)
            assert vector.shape == (1, 384)
    finally:
        load_sentence_transformer.cache_clear()


def test_a_questions_few_passages_embed_in_their_order_as_each_alone():
    """Small batches go shortest first, four at a time, each distinct text once: every vector is still
    the one its own text gets alone, in the order asked."""
    from vera_core.index.embedding import SMALL_BATCH, _encode_small
    model = load_sentence_transformer(None, False, bucketed=True, replica=20)
    texts = ["Encryption at rest.", "Net sales rose 4% to $32.8 billion in 2018, led by Industrial and Safety "
             "and Graphics, while Consumer was flat and currency translation reduced sales by 0.3%.",
             "Backups are tested quarterly.", "Encryption at rest.", "Full disk encryption is required on "
             "every laptop that stores customer data.", "Risk factors.", "VPN."]
    assert len(set(texts)) > SMALL_BATCH
    together = _encode_small(model, texts)
    alone = [model.encode([t], normalize_embeddings=True)[0] for t in texts]
    assert together.shape == (len(texts), 384)
    for got, want in zip(together, alone):
        assert float(got @ want) > 0.9999
    assert float(together[1] @ together[2]) < 0.9
