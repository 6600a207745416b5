/**
 * `local/no-untyped-query`: forbids calling TypeORM's `query()` (DataSource, EntityManager, QueryRunner, or a Pick
 * of them). Its signature is `query<T = any>(...)`, so `const rows: Row[] = await em.query(...)` compiles with any
 * row type at all and the no-unsafe-* rules never see an `any`. Data access goes through `sqlRows<T>()` and
 * `sqlExec()` in src/database/sql.ts instead, whose rows are typed by the table's owner.
 */
const TYPEORM = /[\\/]node_modules[\\/]typeorm[\\/]/;

export default {
  meta: {
    type: 'problem',
    docs: {
      description: "Forbid TypeORM's untyped query(); use sqlRows<T>() or sqlExec() from src/database/sql.ts",
    },
    messages: {
      untyped:
        "TypeORM's query() returns rows of any type unchecked: use sqlRows<Row>() or sqlExec() from src/database/sql.ts.",
    },
    schema: [],
  },
  create(context) {
    const services = context.sourceCode.parserServices;
    const checker = services.program.getTypeChecker();
    return {
      "CallExpression > MemberExpression.callee[property.name='query']"(node) {
        const symbol = checker.getSymbolAtLocation(services.esTreeNodeToTSNodeMap.get(node.property));
        const declarations = symbol?.declarations ?? [];
        if (declarations.some((d) => TYPEORM.test(d.getSourceFile().fileName))) {
          context.report({ node, messageId: 'untyped' });
        }
      },
    };
  },
};
