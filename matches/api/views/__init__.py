"""The API's views, one module per resource. Views read the input, call one service or
selector, and render a shape (matches/api/contract.py); their documentation is in
matches/api/schema/operations.py."""
