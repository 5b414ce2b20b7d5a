import CatalogModel
import Testing

@Suite struct FilterExpressionTests {
    private func condition(_ field: String, _ test: FilterTest, at column: Int) -> FilterExpression {
        .condition(FilterCondition(field: field, test: test, column: column))
    }

    @Test func conditionsJoinWithAndBeforeOr() throws {
        let text = #"Origin = "Japan" AND (Horsepower 100..150 OR Cylinders IN [3, 5]) OR NOT Model EXISTS"#
        let expression = try FilterExpression(parsing: text)
        #expect(
            expression
                == .or([
                    .and([
                        condition("Origin", .compare(.equal, FilterValue("Japan", quoted: true)), at: 1),
                        .or([
                            condition("Horsepower", .range(FilterValue("100"), FilterValue("150")), at: 23),
                            condition("Cylinders", .oneOf([FilterValue("3"), FilterValue("5")]), at: 46),
                        ]),
                    ]),
                    .not(condition("Model", .exists, at: 74)),
                ]))
        #expect(expression.fields == ["Origin", "Horsepower", "Cylinders", "Model"])
        #expect(expression.conditions.map(\.column) == [1, 23, 46, 74])
        #expect(
            expression.description
                == #"Origin = "Japan" AND (Horsepower 100..150 OR Cylinders IN [3, 5]) OR NOT Model EXISTS"#)
    }

    @Test func everyOperatorAndTest() throws {
        let cases: [(String, FilterTest)] = [
            ("a = 1", .compare(.equal, FilterValue("1"))),
            ("a == 1", .compare(.equal, FilterValue("1"))),
            ("a != x", .compare(.notEqual, FilterValue("x"))),
            ("a <> x", .compare(.notEqual, FilterValue("x"))),
            ("a < 2.5", .compare(.less, FilterValue("2.5"))),
            ("a <= -3", .compare(.lessOrEqual, FilterValue("-3"))),
            ("a > 2024-05-01", .compare(.greater, FilterValue("2024-05-01"))),
            ("a >= 2024-05-01T12:30:00Z", .compare(.greaterOrEqual, FilterValue("2024-05-01T12:30:00Z"))),
            ("a 1..2", .range(FilterValue("1"), FilterValue("2"))),
            ("a 1..", .range(FilterValue("1"), nil)),
            ("a ..2", .range(nil, FilterValue("2"))),
            ("a 2020-01-01..2020-12-31", .range(FilterValue("2020-01-01"), FilterValue("2020-12-31"))),
            ("a in ['x y', z]", .oneOf([FilterValue("x y", quoted: true), FilterValue("z")])),
            ("a exists", .exists),
            ("a is empty", .isEmpty),
        ]
        for (text, test) in cases {
            let expression = try FilterExpression(parsing: text)
            #expect(expression == condition("a", test, at: 1), "\(text)")
            #expect(try FilterExpression(parsing: expression.description) == expression, "\(expression)")
        }
        #expect(try FilterExpression(parsing: "a NOT EXISTS") == .not(condition("a", .exists, at: 1)))
        #expect(
            try FilterExpression(parsing: "a IS NOT EMPTY")
                == .and([condition("a", .exists, at: 1), .not(condition("a", .isEmpty, at: 1))]))
    }

    /// Found by the fuzzer: a range end with a dot of its own (`i.`, `.5`) must not run into `..`.
    @Test(arguments: ["Un i. .. .", "a 5. .. 6", "a 1 .. .5", "a . ..", "a .. .b", "\"..\u{65E}\" = y"])
    func rangeEndsWithDotsReadBack(text: String) throws {
        let expression = try FilterExpression(parsing: text)
        #expect(try FilterExpression(parsing: expression.description) == expression, "\(expression)")
    }

    @Test func quotedFieldsAndValuesKeepTheirText() throws {
        let expression = try FilterExpression(parsing: #""Model Year" >= 1970 and name = 'O''Brien' and "or" = "and""#)
        #expect(expression.fields == ["Model Year", "name", "or"])
        #expect(expression.description == #""Model Year" >= 1970 AND name = "O'Brien" AND "or" = "and""#)
        #expect(try FilterExpression(parsing: expression.description) == expression)
        let value = FilterValue("130")
        #expect(value.number == 130 && FilterValue("130", quoted: true).number == nil)
        #expect(FilterValue("1970-01-02").date == 86_400)
    }

    @Test(arguments: [
        ("", "expected a field's name, found the end of the filter", 1),
        (
            "Origin",
            "expected =, !=, <, <=, >, >=, a range (a..b), IN, EXISTS or IS EMPTY after 'Origin', found the end of the filter",
            7
        ),
        ("Origin = ", "expected a value after '=', found the end of the filter", 10),
        ("Origin = Japan Korea", "expected AND, OR or the end of the filter, found 'Korea'", 16),
        ("(a = 1", "expected ')' to close the '(' at character 1, found the end of the filter", 7),
        ("a = 1)", "expected AND, OR or the end of the filter, found ')'", 6),
        ("a IN [1, 2", "expected ',' or ']' to close the '[' at character 6, found the end of the filter", 11),
        ("a IN 1", "expected '[' after IN, found '1'", 6),
        ("a = 'open", "the quote opened here is not closed", 5),
        ("a ! b", "'!' goes with '=' ('!=': not equal); write NOT to turn a condition around", 3),
        ("a = 1..2", "a range is written FIELD a..b, without '='", 6),
        ("a IS full", "expected EMPTY after IS, found 'full'", 6),
        ("AND = 1", "expected a field's name, found 'AND'", 1),
        ("a = {", "unexpected character '{': quote a value with it in \"…\"", 5),
        ("a ..", "expected a value after '..', found the end of the filter", 5),
    ])
    func mistakesSayWhatAndWhere(text: String, message: String, column: Int) {
        #expect {
            try FilterExpression(parsing: text)
        } throws: { error in
            guard let error = error as? RecordFilterError else { return false }
            return error.message == message && error.column == column
        }
    }

    @Test func boundsKeepHostileFiltersCheap() {
        let deep = String(repeating: "(", count: 40) + "a = 1" + String(repeating: ")", count: 40)
        #expect(throws: RecordFilterError.self) { try FilterExpression(parsing: deep) }
        let nots = String(repeating: "NOT ", count: 40) + "a = 1"
        #expect(throws: RecordFilterError.self) { try FilterExpression(parsing: nots) }
        let many = (0...FilterExpression.maxConditions).map { "f\($0) = 1" }.joined(separator: " OR ")
        #expect(throws: RecordFilterError.self) { try FilterExpression(parsing: many) }
        let long = "a = " + String(repeating: "x", count: FilterExpression.maxLength)
        #expect(throws: RecordFilterError.self) { try FilterExpression(parsing: long) }
    }

    @Test func numbersAndDatesReadOneWay() {
        #expect(FieldValueOrder.number("130") == 130)
        #expect(FieldValueOrder.number("-1.5e2") == -150)
        #expect(FieldValueOrder.number("nan") == nil && FieldValueOrder.number("inf") == nil)
        #expect(FieldValueOrder.number("0x10") == nil && FieldValueOrder.number("1,5") == nil)
        #expect(FieldValueOrder.date("2024-02-29") != nil && FieldValueOrder.date("2023-02-29") == nil)
        #expect(FieldValueOrder.date("2024-05-01T12:30+02:00") == FieldValueOrder.date("2024-05-01T10:30Z"))
        #expect(FieldValueOrder.date("1969-12-31") == -86_400)
        #expect(FieldValueOrder.date("1970") == nil)
        let values: [Double] = [-1e300, -2, -0.5, 0, 0.25, 3, 1e300]
        let bytes = values.map(FieldValueOrder.sortable)
        #expect(bytes == bytes.sorted { $0.lexicographicallyPrecedes($1) })
        #expect(values.map { FieldValueOrder.value(sortable: FieldValueOrder.sortable($0)) } == values)
    }
}
