"""The simulator's page session: the virtual board behind the web front end
(controller/web), with the page's hands, fingers and faults on it."""
