"""Several app processes behind one sticky proxy (`vera serve`): the nginx configuration and the
supervisor that starts, watches and stops the processes."""
