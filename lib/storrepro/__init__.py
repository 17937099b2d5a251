"""storrepro: reproductions of five cloud-storage papers."""
