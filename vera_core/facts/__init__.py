"""Document facts: currency, reporting period, framework, units, consolidation basis."""
