"""Payments through BTCPay Server: its Greenfield client, the invoices made for intents, and its webhook."""
