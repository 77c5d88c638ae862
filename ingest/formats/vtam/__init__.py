"""VTAM operator displays: D NET,BFRUSE."""
