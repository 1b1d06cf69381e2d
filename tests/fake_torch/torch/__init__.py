"""A stand-in for PyTorch, just enough of its API for experiments/torch-job.py to run its control flow without a GPU
(tests/cli.sh): tensors, modules and streams that do nothing. Not PyTorch's code; nothing of it is measured."""
import contextlib, types
class T:
    def __init__(self, *a, **k): pass
    def pin_memory(self): return self
    def to(self, *a, **k): return self
    def record_stream(self, s): pass
    def abs(self): return self
    def mean(self): return self
    def sum(self, *a): return self
    def __float__(self): return 1.0
    def __add__(self, o): return self
    def __truediv__(self, o): return self
    def item(self): return 0.5
    def backward(self): pass
def randn(*a, **k): return T()
def randint(*a, **k): return T()
def stack(x): return T()
def manual_seed(s): pass
def device(d): return d
class _Stream:
    def wait_stream(self, s): pass
    def wait_event(self, e): pass
class _Event:
    def record(self, s=None): pass
class _OOM(RuntimeError): pass
@contextlib.contextmanager
def _stream(s): yield
@contextlib.contextmanager
def no_grad(): yield
cuda = types.SimpleNamespace(is_available=lambda: True, Stream=_Stream, Event=_Event, current_stream=lambda: _Stream(),
                             stream=_stream, synchronize=lambda: None, OutOfMemoryError=_OOM,
                             nvtx=types.SimpleNamespace(range_push=lambda n: None, range_pop=lambda: None))
backends = types.SimpleNamespace(cuda=types.SimpleNamespace(matmul=types.SimpleNamespace(allow_tf32=True)))
from . import nn
from .nn import functional
class _Opt:
    def __init__(self, *a, **k): pass
    def zero_grad(self, **k): pass
    def step(self): pass
optim = types.SimpleNamespace(Adam=_Opt)
