# One image for every Switchboard service. `APP` only picks the default command, so
# `docker build --build-arg APP=email .` gives an image that runs the email service; Kubernetes
# (deploy/) runs a single image and names the command in each Deployment instead.
#
#   docker build -t switchboard .                      # gateway by default
#   docker run --rm switchboard node tools/migrate.mjs # every service's migrations

# ---- build: full dependency tree, compile apps/ and libs/ to dist/ -------------------------------
FROM node:20-bookworm-slim AS build
WORKDIR /app
# `npm ci` rejects this lockfile (it lacks the darwin/windows optional builds the registry does not
# have), while `npm install` accepts it unchanged. Manifests first, so code edits keep this layer.
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY tsconfig.base.json tsconfig.json ./
COPY tools ./tools
COPY libs ./libs
COPY apps ./apps
# The compiler, jest and nx are not needed at run time: prune them before the runtime copies.
RUN node tools/build.mjs && npm prune --omit=dev --no-audit --no-fund

# ---- runtime: compiled code and production dependencies only ------------------------------------
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY tools/migrate.mjs ./tools/migrate.mjs
# The docs service serves these (DOCS_DIR defaults to `docs`, relative to /app).
COPY docs ./docs
# The services need no privileges; `node` (uid 1000) ships with the base image.
USER node
# API (gateway), health (services), realtime clients, Prometheus metrics (every process).
EXPOSE 8080 8081 8090 9464
# Last, so the images for the eight services share every layer above.
ARG APP=gateway
ENV APP=${APP}
# A shell expands ${APP}; `exec` then makes node PID 1 so it receives SIGTERM and shuts down cleanly.
CMD ["sh", "-c", "exec node dist/apps/${APP}/src/main.js"]
