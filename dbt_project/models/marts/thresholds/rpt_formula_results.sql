-- The documents' formulas computed, one row per formula and case (formula_definitions(),
-- macros/formulas.sql): each worked example the document prints, from its inputs in the seed
-- reference_formula_inputs, with the printed result and whether the formula reproduces it to the
-- printed precision (agrees: within half a unit of the last printed digit); and the site's own
-- values where the warehouse measures a formula's inputs (int_formula__inputs: TN3270 and FTP per
-- z/OS system and day). The warehouse holds no round-trip time, RAM size or 3172 PIU counts: those
-- formulas have the document's cases only.
{%- set formulas = formula_definitions() %}

with seed as (
    select * from {{ ref('reference_formula_inputs') }}
),

inputs as (
    select * from {{ ref('int_formula__inputs') }}
),

-- the document of a measured case: its formula's (a documented case carries its own: relative_change_pct
-- has cases of two documents)
document_of_formula as (
    select formula, max(document) as document
    from seed
    group by formula
),

printed as (
    select formula, case_name, value as printed_result, decimals, printed as printed_text, line, note
    from seed
    where role = 'result'
),
{#- every input name of the formulas, once #}
{%- set names = [] %}
{%- for f in formulas %}{% for name in f.inputs %}{% if name not in names %}{% do names.append(name) %}{% endif %}{% endfor %}{% endfor %}

-- each case's inputs side by side (value and shown text)
cases as (
    select
        document,
        formula,
        case_name,
        source,
        system_name,
        min(line) as first_input_line,
        {%- for name in names %}
        max(case when name = '{{ name }}' then value end) as {{ name }},
        max(case when name = '{{ name }}' then shown end) as {{ name }}__shown{{ ',' if not loop.last }}
        {%- endfor %}
    from inputs
    group by document, formula, case_name, source, system_name
),

-- one pass over the cases, each formula's columns chosen by its name: a query per formula, each reading
-- every case again, cost seconds
results as (
    select
        document,
        formula,
        case formula
            {%- for f in formulas %}
            when '{{ f.formula }}' then {{ formula_rule_ids(f, 'document') }}
            {%- endfor %}
        end as rule_ids,
        case formula
            {%- for f in formulas %}
            when '{{ f.formula }}' then '{{ f.words | replace("'", "''") }}'
            {%- endfor %}
        end as words,
        case formula
            {%- for f in formulas %}
            when '{{ f.formula }}' then '{{ f.unit }}'
            {%- endfor %}
        end as unit,
        case_name,
        source,
        system_name,
        first_input_line,
        case formula
            {%- for f in formulas %}
            {%- set shown = [] %}
            {%- for name in f.inputs %}
            {%- if not loop.first %}{% do shown.append("', '") %}{% endif %}
            {%- do shown.append(name ~ '__shown') %}
            {%- endfor %}
            when '{{ f.formula }}' then {{ dbt.concat(shown) }}
            {%- endfor %}
        end as inputs,
        case formula
            {%- for f in formulas %}
            when '{{ f.formula }}' then {{ f.expression }}
            {%- endfor %}
        end as result
    from cases
    where formula in ({% for f in formulas %}'{{ f.formula }}'{{ ', ' if not loop.last }}{% endfor %})
)

select
    coalesce(results.document, document_of_formula.document) as document,
    results.formula,
    results.rule_ids,
    results.case_name,
    results.source,
    results.system_name,
    coalesce(printed.line, results.first_input_line) as line,
    results.words,
    results.inputs,
    results.result,
    results.unit,
    round(results.result * power(10, printed.decimals)) / power(10, printed.decimals) as result_at_printed_precision,
    printed.printed_result,
    printed.printed_text,
    printed.decimals,
    case
        when results.source = 'measured' then null
        when printed.printed_result is null then 'no printed result'
        {#- half a unit of the last printed digit, and a hair for the binary fraction #}
        when abs(results.result - printed.printed_result) <= 0.5 * power(10, -printed.decimals) + 1e-9 then 'agrees'
        else 'differs'
    end as agreement,
    printed.note
from results
left join document_of_formula
    on document_of_formula.formula = results.formula
left join printed
    on printed.formula = results.formula
    and printed.case_name = results.case_name
    and results.source = 'document'
