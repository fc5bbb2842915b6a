"""The finance vocabulary VERA reads filings and questions with, defined once: periods and dates,
statements, scales and currencies, line items."""
