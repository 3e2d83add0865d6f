"""What ties a request's and a task's traces together: the request's id (request_id.py), the first middleware
that binds it, times the request and writes its one log line (middleware.py), the log lines' formats and scrubbing
(logs.py), each process's prometheus-client metrics (metrics.py), and the task backend that carries the id into
the work a request enqueues (task_backend.py)."""
