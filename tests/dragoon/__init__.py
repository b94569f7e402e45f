"""The dragoon game's tests, named by the rules they check (a package: module names repeat across games)."""
