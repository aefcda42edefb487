"""The four games. Each package holds its rules, notation, view, terminal render and bots."""
