"""A question's grammar: what a figure, metric or stated-change question asks for, read once into a
typed request the router hands to its strategy. Below retrieval: imports only the finance vocabulary,
records and the text normaliser."""
