"""Match records: `.mat` text files and atomically saved matches."""
