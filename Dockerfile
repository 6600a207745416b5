# One image for every Legwork process: the API (the default command), the job runner (`node dist/src/jobs.main.js`),
# the migrations (`node dist/src/database/migrate.cli.js`) and the provider sandbox. deploy/k8s runs it as uid 1000
# with a read-only root filesystem: the only writable paths are DATA_DIR (/data) and /tmp, mounted by the pod.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The SDK, the MCP server and the web apps are npm workspaces: their manifests must be there for npm ci to match the
# lockfile.
COPY packages/sdk/package.json packages/sdk/
COPY packages/mcp/package.json packages/mcp/
COPY web/package.json web/
RUN npm ci
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production \
    DATA_DIR=/data
# The code stays owned by root, so the process cannot change it; /data is the one directory it writes (uploads on
# local disk, sandbox keys) when no volume is mounted there.
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The workspaces the API loads at /mcp (the MCP tool catalogue and the SDK its tools call), where
# node_modules/@legwork/* link to: their manifests and builds only.
COPY --from=build /app/packages/sdk/package.json ./packages/sdk/
COPY --from=build /app/packages/sdk/dist ./packages/sdk/dist
COPY --from=build /app/packages/mcp/package.json ./packages/mcp/
COPY --from=build /app/packages/mcp/dist ./packages/mcp/dist
# The guides, served rendered at /docs/<guide>.md beside the API reference.
COPY --from=build /app/docs ./docs
COPY package.json ./
RUN mkdir -p /data && chown 1000:1000 /data
# The image's `node` user, by number, so Kubernetes can verify runAsNonRoot without reading /etc/passwd.
USER 1000:1000
# 8000: the API (PORT). 8001: the job runner's /livez and /readyz (JOBS_HEALTH_PORT), when set.
EXPOSE 8000 8001
# Node runs as PID 1 and handles SIGTERM itself (drain, then exit 0; docs/scaling.md). Started directly, not through
# npm, which would neither forward the signal reliably nor run with a read-only root filesystem. The heap budget is
# npm start's (package.json; docs/scaling.md, "Memory"); the Kubernetes manifests set the same in NODE_OPTIONS.
CMD ["node", "--max-old-space-size=384", "dist/src/main.js"]
