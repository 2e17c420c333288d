"""The reproduction harness: run each case in a worker process and attribute its error to a raise site."""
