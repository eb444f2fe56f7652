# The cluster's node image: Ray (the version of the project's environment: clients and nodes must match)
# and the Python dependencies pyproject.toml declares; never the project's code, which every study's Ray
# job brings as a wheel (scripts/submit_job.sh). Build it once and push it; cluster.yaml says where it goes.
#   docker build -t REGISTRY/tashkalar-node:2.60.0 . && docker push REGISTRY/tashkalar-node:2.60.0
FROM rayproject/ray:2.60.0-py311-cpu
COPY pyproject.toml /tmp/tashkalar/pyproject.toml
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('/tmp/tashkalar/pyproject.toml', 'rb'))['project']['dependencies']))" \
      > /tmp/tashkalar/requirements.txt \
    && pip install --no-cache-dir --quiet -r /tmp/tashkalar/requirements.txt \
    && rm -r /tmp/tashkalar
