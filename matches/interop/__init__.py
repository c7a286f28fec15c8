"""Other programs' formats: gnubg `.mat` match files in and out of the store."""
