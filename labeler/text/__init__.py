"""Surface forms of part names: the layer below both the lexicon and the scorer.

The lexicon indexes its rows by these forms and the scorer compares answers by
them, so they live underneath both; neither of those packages is imported here.
"""
