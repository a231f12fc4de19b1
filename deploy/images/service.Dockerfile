# The VRP solve service: one image, the role as its command (api or worker).
# Built by scripts/deploy/build-images.sh (make image): BASE is a Debian minbase root filesystem
# with ca-certificates and libstdc++6 and the user `app`; the context is a staging folder holding
# Node 24's binary (tools/node) and the compiled service with its production node_modules.
ARG BASE
FROM ${BASE}
ARG APP_UID=10001
COPY bin/node /usr/local/bin/node
COPY bin/entrypoint.sh bin/probe.mjs /usr/local/lib/vrp/
COPY app /app
WORKDIR /app
# Listen on every interface inside the container; ports are fixed so probes and scrapes know them.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    WORKER_METRICS_PORT=9464
USER ${APP_UID}:${APP_UID}
EXPOSE 8080 9464
ENTRYPOINT ["/usr/local/lib/vrp/entrypoint.sh"]
CMD ["api"]
