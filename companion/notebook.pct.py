# %% [markdown]
# The companion notebook's code: each cell's prose, in each language, is in
# docs/notebook.md and its translations (notebook.<code>.md), which place the
# cells by name. Every line fits the page's listing: at most 78 characters.

# %% name="setup"
import torch
from matplotlib import rc_context
from matplotlib.figure import Figure

# show(draw) calls draw(scheme, words) for each language and colour scheme
from companion.show import show
from experiment import data, figures, interventions, measure, model
from experiment.config import Config

# %% name="train"
config = Config(seeds=(0,))   # the site's configuration, one seed
torch.set_num_threads(1)      # one thread, as the site's run: same numbers
R = data.mixing_matrix(config.mixing_seed)   # (9, 9), the same R as every run
rng = data.generator(0, "training")   # seed 0: initial weights, then batches
student = model.initial_student(rng, config.init_scale)   # W_Q, W_V: (9, 3)
optimizer = torch.optim.Adam(student.parameters(), lr=config.learning_rate)

# The site's loop (experiment/train.py): forward, MSE, backward, Adam's step.
# Edit Student.forward in experiment/model.py: it trains on its gradients.
losses = []
for _ in range(config.steps):
    batch = data.draw_examples(rng, config.batch_size, R, config.query_scale)
    loss = model.mse(student(batch.request, batch.records), batch.target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
loss_trace = torch.tensor(losses, dtype=torch.float64)   # (steps,)
print(f"{config.steps} steps, batch {config.batch_size}")
print(f"training MSE: first {loss_trace[0]:.3g}, last {loss_trace[-1]:.3g}")

# %% name="training-curve"
def training_curve(scheme, words):
    with rc_context(figures.style(scheme)):   # the scheme's colours
        fig = Figure(figsize=(6, 3.2), layout="constrained")
        ax = fig.add_subplot()
        ax.semilogy(loss_trace.numpy(), color=scheme.seed_colours[0])
        ax.yaxis.set_major_formatter(figures.power_of_ten)   # ticks 10⁻³⁰
        ax.set_xlabel(words["stepAxis"])   # "step" in the page's language
        ax.set_ylabel("MSE")
    return fig


show(training_curve)

# %% name="query-response"
# R @ W_Q and R @ W_V, the learned responses: (9, 3) each
query_response, value_response = measure.responses(student, R)
show(lambda scheme, words:
     figures.single_heatmap(query_response.numpy(), scheme))

# %% name="value-response"
show(lambda scheme, words:
     figures.single_heatmap(value_response.numpy(), scheme))

# %% name="heldout"
heldout = data.draw_examples(data.generator(0, "heldout"),
                             config.heldout_size, R, config.query_scale)
measured = measure.measure(student, heldout, R, config.shift, data.fixed_keys)
summary = {
    "held-out MSE": measured["heldout_mse"],
    "uniform attention": measured["uniform_attention_mse"],
    "1 − R², largest of six": measured["max_unexplained"],
    "largest |response − intended|": measured["max_response_error"],
}
for label, value in summary.items():
    print(f"{label + ':':31}{value:.3g}")
erase = measured["interventions"]
print("erase a query feature:  ",
      [round(v, 3) for v in erase["erase_query"]])
print("erase a payload feature:",
      [round(v, 3) for v in erase["erase_payload"]])

# Any edit of the latents: here the request's first query feature set to 0,
# its mean.
edited = interventions.erase_query(heldout.latents, 0)
prediction = measure.predict(student, edited, R)
against_teacher = model.mse(prediction, data.teacher(edited))
print(f"against the teacher for the same edit: {against_teacher:.3g}")
