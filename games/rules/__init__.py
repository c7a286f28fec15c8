"""The rules of tavla (backgammon), pure Python: nothing here imports Django."""
