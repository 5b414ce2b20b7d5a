import CatalogTestSupport
import Testing

/// Says in every run whether the PostgreSQL half of the suites ran. The behaviour suites run on
/// each engine of ``TemporaryDatabase/Engine/available``, so without `CATALOG_TEST_POSTGRES` they
/// run on SQLite alone and would say nothing of it; this test is reported as skipped then, with
/// the reason. `scripts/test-postgres.sh` runs it on its throwaway cluster and fails when any
/// test of its run was skipped.
@Suite struct PostgresCoverageTests {
    @Test(
        .enabled(
            if: PostgresTestServer.url != nil,
            "PostgreSQL tests skipped: CATALOG_TEST_POSTGRES is unset (scripts/test-postgres.sh runs them)"))
    func theBehaviourSuitesRunOnPostgreSQL() throws {
        #expect(TemporaryDatabase.Engine.available == [.sqlite, .postgres])
        _ = try TemporaryDatabase(engine: .postgres)
    }
}
