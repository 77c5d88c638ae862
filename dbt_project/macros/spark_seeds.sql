{#- Seeds on Spark, rows written as escaped SQL literals. dbt-spark 1.11 (session method) pastes each value
    between quotes unescaped: an apostrophe ("the shift's hours") breaks the insert, a backslash is eaten
    by Spark's string unescaping (`\TAHITI` becomes `TAHITI`: silently wrong), and an empty cell becomes
    the text 'None'. Here NULL is null, numbers are numbers, and text keeps every character. -#}
{% macro spark__load_csv_rows(model, agate_table) %}
    {%- set column_override = model['config'].get('column_types', {}) %}
    {%- set statements = [] %}
    {%- for chunk in agate_table.rows | batch(get_batch_size()) %}
        {%- set sql %}
            insert into {{ this.render() }} values
            {%- for row in chunk %}
            ({%- for value in row -%}
                {%- set column = agate_table.column_names[loop.index0] -%}
                {%- set type = column_override.get(column, adapter.convert_type(agate_table, loop.index0)) -%}
                cast({{ spark_seed_literal(value) }} as {{ type }}){% if not loop.last %}, {% endif %}
            {%- endfor -%}){% if not loop.last %},{% endif %}
            {%- endfor %}
        {%- endset %}
        {%- do adapter.add_query(sql, abridge_sql_log=True) %}
        {%- if loop.first %}{% do statements.append(sql) %}{% endif %}
    {%- endfor %}
    {{ return(statements[0]) }}
{% endmacro %}

{% macro spark_seed_literal(value) %}
    {%- if value is none -%} null
    {%- elif value is sameas true or value is sameas false -%} {{ 'true' if value else 'false' }}
    {%- elif value is number -%} {{ value }}
    {%- else -%} '{{ (value | string).replace('\\', '\\\\').replace("'", "\\'") }}'
    {%- endif -%}
{% endmacro %}
