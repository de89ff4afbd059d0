"""Sample material Labeler generates itself: a small labelled-biology textbook."""
