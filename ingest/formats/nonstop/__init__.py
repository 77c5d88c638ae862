"""HP NonStop (Tandem) utilities' printed output other than MEASURE's (the FastSort statistics listing)."""
