def cross_entropy(a, b):
    import torch
    return torch.T()
