"""Make the plain helper modules in tests/ (such as ``guandan_reference``) importable."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
