MODE = "fused"
