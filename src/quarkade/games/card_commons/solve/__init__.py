"""The compiled Card Commons solver (numba, the ``solve`` extra); see ``tutorial``."""
