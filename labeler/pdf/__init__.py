"""Source documents: opening with clear errors, rendering, page content, figure candidates."""
