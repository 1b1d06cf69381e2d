class _M:
    def __init__(self, *a, **k): pass
    def to(self, d): return self
    def eval(self): return self
    def parameters(self): return []
    def __call__(self, x):
        import torch
        return torch.T()
Sequential = Linear = ReLU = _M
from . import functional
