"""The gradient of a model's word embeddings, summed only on the rows its tokens touch, with the same bits as torch's.

Backward through ``nn.Embedding`` gives a dense gradient: per forward pass, a zeroed vocabulary x width matrix (30,522 x
384 floats for MiniLM, 47 MB) into which the pass's token gradients are added, and then one dense addition per further
pass of the batch, though a batch's passes touch a few hundred rows. On a CPU, summing only those rows takes 4-8% off
an S&S training step (``benchmarks/embedding_gradient.py``).

``sum_touched_rows(model)`` has the model's word embeddings instead keep, per pass, the sums of its touched rows only,
computed by the same kernel (``aten.embedding_dense_backward``) over the pass's own rows: each row adds its tokens'
gradients in token order from zero, as torch's does. At the end of the backward the passes' row sums are added into one
zeroed matrix in the order autograd ran the passes, which is the order in which it would have added their dense
matrices, so every element is the same sum in the same order (a row a pass does not touch adds 0.0, which changes no
sum: a row sum that starts from +0.0 is never -0.0). The matrix becomes ``weight.grad`` as autograd's would, or is added
to a ``weight.grad`` already there (accumulated batches) as autograd adds. Where ``weight.grad`` is empty, the matrix is
one kept buffer whose touched rows are zeroed again before its next use, so no 47 MB is zeroed per step.

The weights after any number of steps are byte-identical to those of the dense gradient (``tests/test_sns.py``). Only
a plain ``nn.Embedding`` (no ``max_norm``, no frequency scaling, not sparse) whose weights no other module shares is
changed; anything else keeps torch's own gradient.
"""

from __future__ import annotations

import torch


class _PassRowSums(torch.autograd.Function):
    """The embedding lookup of one pass; its backward keeps the pass's row sums on the module (no gradient flows to
    the weights through autograd) and has them added once the whole backward has run."""

    @staticmethod
    def forward(ctx, ids, weight, module):
        ctx.save_for_backward(ids)
        ctx.module = module
        return torch.nn.functional.embedding(ids, weight, module.padding_idx)

    @staticmethod
    def backward(ctx, grad):
        (ids,) = ctx.saved_tensors
        module = ctx.module
        ids, grad = ids.reshape(-1), grad.reshape(ids.numel(), -1)
        if module.padding_idx is not None:  # torch's backward skips the padding row's tokens
            kept = ids != module.padding_idx
            ids, grad = ids[kept], grad[kept]
        rows, positions = torch.unique(ids, return_inverse=True)
        sums = torch.ops.aten.embedding_dense_backward(grad, positions, rows.numel(), -1, False)
        if not module.pass_sums:
            torch.autograd.Variable._execution_engine.queue_callback(module.gather)
        module.pass_sums.append((rows, sums))
        return None, None, None


class TouchedRowsEmbedding(torch.nn.Embedding):
    """An ``nn.Embedding`` whose backward sums only the rows its tokens touch (see the module's docstring)."""

    pass_sums: list
    buffer: torch.Tensor | None
    dirty_rows: list

    def forward(self, ids):
        if not (torch.is_grad_enabled() and self.weight.requires_grad):
            return super().forward(ids)
        return _PassRowSums.apply(ids, self.weight, self)

    def gather(self) -> None:
        """Add the passes' row sums of the backward that just ended into the weights' gradient."""
        passes, self.pass_sums = self.pass_sums, []
        weight, touched = self.weight, [rows for rows, _ in passes]
        if weight.grad is None:  # the kept buffer, its last touched rows zeroed again, becomes the gradient
            if self.buffer is None or (self.buffer.shape, self.buffer.dtype, self.buffer.device) != (weight.shape, weight.dtype, weight.device):
                self.buffer, self.dirty_rows = torch.zeros_like(weight), []
            for rows in self.dirty_rows:
                self.buffer.index_fill_(0, rows, 0.0)
            for rows, sums in passes:
                self.buffer.index_add_(0, rows, sums)
            weight.grad, self.dirty_rows = self.buffer, touched
        else:  # accumulated batches: the passes' sum added to the gradient there, as AccumulateGrad adds
            total = torch.zeros_like(weight)
            for rows, sums in passes:
                total.index_add_(0, rows, sums)
            weight.grad += total
            if weight.grad is self.buffer:  # one list of distinct rows, however many steps accumulate in place
                self.dirty_rows = [torch.unique(torch.cat(self.dirty_rows + touched))]


def sum_touched_rows(model) -> bool:
    """Have ``model``'s word embeddings sum only touched rows in backward; whether they do (see the module's docstring)."""
    embedding = model.get_input_embeddings()
    output = model.get_output_embeddings()
    if type(embedding) is not torch.nn.Embedding or embedding.max_norm is not None or embedding.scale_grad_by_freq or embedding.sparse:
        return False
    if output is not None and getattr(output, "weight", None) is embedding.weight:  # tied: the head adds to the same gradient
        return False
    embedding.__class__ = TouchedRowsEmbedding
    embedding.pass_sums, embedding.buffer, embedding.dirty_rows = [], None, []
    return True
